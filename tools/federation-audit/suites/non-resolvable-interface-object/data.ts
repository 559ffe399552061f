export const products = [
  {
    __typename: "Bread",
    id: "p1",
    name: "Bread",
  },
];
