export const products = [
  {
    id: "1",
    pid: "p1",
    categoryId: "c1",
    price: 100,
  },
  {
    id: "2",
    pid: "p2",
    categoryId: "c2",
    price: 200,
  },
];

export const categories = [
  {
    id: "c1",
    tag: "t1",
    mainProduct: "1",
  },
  {
    id: "c2",
    tag: "t2",
    mainProduct: "2",
  },
];
