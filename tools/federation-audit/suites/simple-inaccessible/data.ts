export const users = [
  {
    id: "u1",
    age: 11,
    friends: ["u2"],
  },
  {
    id: "u2",
    age: 22,
    friends: ["u1"],
  },
];
