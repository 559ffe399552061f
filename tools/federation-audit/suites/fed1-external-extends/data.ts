export const users = [
  {
    id: "u1",
    rid: "u1-rid",
    name: "u1-name",
    nickname: "u1-nickname",
  },
  {
    id: "u2",
    rid: "u2-rid",
    name: "u2-name",
    nickname: "u2-nickname",
  },
];
