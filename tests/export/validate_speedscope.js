// Validates speedscope files against speedscope's own file-format schema (from the npm
// speedscope package) with ajv: node validate_speedscope.js NODE_MODULES FILE...
// Prints one line per invalid file (with ajv's first errors) and exits 1 if any is.
const path = require('path');
const fs = require('fs');
const modules = path.resolve(process.argv[2]);
const Ajv = require(path.join(modules, 'ajv'));
const schema = JSON.parse(fs.readFileSync(
    path.join(modules, 'speedscope', 'dist', 'release', 'file-format-schema.json'), 'utf8'));
const ajv = new Ajv({allErrors: false, strict: false});
const validate = ajv.compile(schema);  // (its root is FileFormat.File)
let bad = 0;
for (const file of process.argv.slice(3)) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!validate(data)) {
    bad++;
    console.log(file + ': ' + JSON.stringify(validate.errors.slice(0, 3)));
  }
}
console.log('speedscope schema: ' + (process.argv.length - 3 - bad) + ' valid, ' + bad + ' invalid');
process.exit(bad ? 1 : 0);
