export const books = [
  {
    __typename: "Book",
    id: "1",
    upc: "b1",
    author: {
      __typename: "Author",
      id: "a1",
      name: "Alice",
    },
  },
  {
    __typename: "Book",
    id: "2",
    upc: "b2",
    author: {
      __typename: "Author",
      id: "a2",
      name: "Bob",
    },
  },
  {
    __typename: "Book",
    id: "3",
    upc: "b3",
    author: {
      __typename: "Author",
      id: "a3",
      name: "Jack",
    },
  },
];
