export const users = [
  {
    __typename: "Admin",
    id: "u1",
    name: "Alice",
    isMain: false,
  },
  {
    __typename: "Admin",
    id: "u2",
    name: "Bob",
    isMain: true,
  },
];
