export const entities = [
  {
    id: "e1",
    data: "b1",
  },
  {
    id: "e2",
    data: "q1",
  },
];

export const bazs = [
  {
    __typename: "Baz",
    id: "b1",
    foo: "b1-foo",
    bar: "b1-bar",
    baz: "b1-baz",
  },
];

export const quxs = [
  {
    __typename: "Qux",
    id: "q1",
    foo: "q1-foo",
    bar: "q1-bar",
    qux: "q1-qux",
  },
];
