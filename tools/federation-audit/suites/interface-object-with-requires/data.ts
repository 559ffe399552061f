export const users = [
  {
    id: "u1",
    name: "u1-name",
    username: "u1-username",
    age: 11,
  },
  {
    id: "u2",
    name: "u2-name",
    username: "u2-username",
    age: 22,
  },
];
