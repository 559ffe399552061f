export const imagePosts = [
  {
    __typename: "ImagePost",
    id: "i1",
    createdAt: "i1-createdAt",
  },
  {
    __typename: "ImagePost",
    id: "i2",
    createdAt: "i2-createdAt",
  },
];

export const textPosts = [
  {
    __typename: "TextPost",
    id: "t1",
    createdAt: "t1-createdAt",
    body: "t1-body",
  },
  {
    __typename: "TextPost",
    id: "t2",
    createdAt: "t2-createdAt",
    body: "t2-body",
  },
];
