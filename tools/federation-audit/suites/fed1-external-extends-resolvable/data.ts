export const products = [
  {
    id: "p1",
    pid: "p1-pid",
    price: 12.3,
    upc: "upc1",
    name: "p1-name",
  },
];
