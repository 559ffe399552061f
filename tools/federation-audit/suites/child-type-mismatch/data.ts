export const users = [
  {
    id: "u1",
    name: "u1-name",
  },
];
