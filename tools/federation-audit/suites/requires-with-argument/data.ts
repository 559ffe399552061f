export const products = [
  {
    upc: "p1",
    name: "p-name-1",
    price: 11,
    weight: 1,
    category: {
      averagePrice: 11,
    },
  },
  {
    upc: "p2",
    name: "p-name-2",
    price: 22,
    weight: 2,
    category: {
      averagePrice: 22,
    },
  },
];

export const posts = [
  {
    id: "p1",
    body: "p1-body",
  },
  {
    id: "p2",
    body: "p2-body",
  },
];

export const comments = [
  {
    id: "c1",
    postId: "p1",
    authorId: "a2",
    body: "c1-body",
  },
  {
    id: "c2",
    postId: "p1",
    authorId: "a2",
    body: "c2-body",
  },
  {
    id: "c3",
    postId: "p1",
    authorId: "a2",
    body: "c3-body",
  },
  {
    id: "c4",
    postId: "p2",
    authorId: "a1",
    body: "c4-body",
  },
  {
    id: "c5",
    postId: "p2",
    authorId: "a1",
    body: "c5-body",
  },
  {
    id: "c6",
    postId: "p2",
    authorId: "a1",
    body: "c6-body",
  },
];

export const authors = [
  {
    id: "a1",
    name: "a1-name",
  },
  {
    id: "a2",
    name: "a2-name",
  },
];
