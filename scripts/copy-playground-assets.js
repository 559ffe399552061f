// Copies the GraphiQL playground's scripts and styles from the installed packages into
// templates/playground/, where the gateway serves them from (no CDN). Runs after npm install.
const { copyFileSync, existsSync, mkdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

const target = join(__dirname, '..', 'templates', 'playground');
const assets = {
  'graphiql.min.js': ['graphiql', 'graphiql.min.js'],
  'graphiql.min.css': ['graphiql', 'graphiql.min.css'],
  'react.production.min.js': ['react', 'umd/react.production.min.js'],
  'react-dom.production.min.js': ['react-dom', 'umd/react-dom.production.min.js'],
};
mkdirSync(target, { recursive: true });
for (const [name, [pkg, file]] of Object.entries(assets)) {
  let root;
  try {
    // Packages may not export their files, but always their package.json.
    root = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    console.warn(`playground asset ${pkg}/${file} is not installed; the playground page will not load it`);
    continue;
  }
  copyFileSync(join(root, file), join(target, name));
}
if (!existsSync(join(target, 'index.html')))
  console.warn(`templates/playground/index.html is missing in ${dirname(target)}`);
