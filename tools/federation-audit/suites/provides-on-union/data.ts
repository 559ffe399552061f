export const medias = [
  {
    __typename: "Book",
    id: "m1",
    title: "Book 1",
  },
  {
    __typename: "Movie",
    id: "m2",
    title: "Movie 1",
  },
];
