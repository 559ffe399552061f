export const authors = [
  {
    id: "a1",
    name: "John",
    yearsOfExperience: 5,
  },
  {
    id: "a2",
    name: "Jane",
    yearsOfExperience: 20,
  },
];

export const posts = [
  {
    id: "p1",
    body: "p1-body",
    author: authors[0],
  },
  {
    id: "p2",
    body: "p2-body",
    author: authors[1],
  },
];
