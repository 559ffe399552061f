/** A module that exports no plugin: loading it must fail. */
export default { name: 'not-a-plugin', hooks: { pre() {} } };
