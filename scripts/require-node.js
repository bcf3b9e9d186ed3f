// Runs before every npm script, on whatever Node the shell found first. It must stay plain JavaScript
// that any Node from 10 up can parse: its whole job is to turn "wrong Node" into one sentence a person
// can act on, instead of the stack trace the TypeScript sources would give on an older runtime.
// `npm ci` installs the pinned Node 24 into node_modules/.bin, and npm puts that first on the PATH of
// its scripts; when it is missing (an install that skipped the `node` package's install script), the
// shell's own Node runs and this check stops it.
const required = 24;
const found = process.versions.node;
const major = Number(found.split('.')[0]);
if (major !== required) {
  process.stderr.write(
    `This project needs Node.js ${required} but found Node.js ${found} (${process.execPath}); ` +
      'run `npm ci` in the project folder to install the pinned Node.js 24 (with npm 10 to 12), then use the npm scripts again.\n',
  );
  process.exit(1);
}
