export const posts = [
  {
    id: "p1",
    createdAt: "p1-createdAt",
  },
  {
    id: "p2",
    createdAt: "p2-createdAt",
  },
];
