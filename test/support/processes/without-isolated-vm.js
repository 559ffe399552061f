// Loaded with `node --require` by the test of a gateway without isolated-vm: the optional sandbox
// packages resolve as not installed, as on a platform with no binary for them.
const { registerHooks } = require('node:module');

const HIDDEN = new Set(['isolated-vm', 'isolated-vm-node22']);
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (HIDDEN.has(specifier))
      throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: 'MODULE_NOT_FOUND' });
    return nextResolve(specifier, context);
  },
});
