import { definePlugin } from '../../../plugins/sdk';

/** Test plugin that needs an SDK this gateway does not provide: loading it must fail. */
export default definePlugin({ name: 'old-sdk', sdk: '^0.1.0', hooks: { pre() {} } });
