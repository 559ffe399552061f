export const users = [
  {
    id: "u1",
    name: "u1-name",
  },
  {
    id: "u2",
    name: "u2-name",
  },
];
