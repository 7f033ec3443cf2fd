// The reference publisher (@rckflr/llms-skills) lists @rckflr/minimemory as an optional
// dependency for its `memory` command. The registry does not serve that package, and a lock
// file without it is one `npm ci` refuses, so package.json overrides it with this folder.
// Importing it fails, which the publisher reports as its own "engine not installed" error:
// the same behaviour as an install where the optional package is absent. No test uses `memory`.
throw new Error('@rckflr/minimemory is not part of this repository (the publisher `memory` command is unavailable)');
