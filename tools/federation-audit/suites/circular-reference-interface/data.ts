export const books = [
  {
    __typename: "Book",
    id: "1",
    price: 10.99,
  },
  {
    __typename: "Book",
    id: "2",
    price: 5.99,
  },
  {
    __typename: "Book",
    id: "3",
    price: 10.99,
  },
];
