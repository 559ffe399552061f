export const users = [
  {
    id: "u1",
    type: "REGULAR",
  },
  {
    id: "u2",
    type: "ANONYMOUS",
  },
];
