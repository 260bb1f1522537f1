// Injected file-system faults for a second-look process a test spawns: loaded with
// `NODE_OPTIONS=--import <this file>` and configured by SECOND_LOOK_TEST_FS_FAULT, a JSON object
// `{ "code": "ENOSPC", "calls": ["open", "mkdir"], "under": "/path" }`. Every listed
// fs/promises call on a path under `under` fails with that code, as a full disk, a read-only
// mount or a folder without permission would make it fail. Other paths are untouched.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve, sep } from "node:path";

const MESSAGES = {
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  ENOENT: "no such file or directory",
};

const raw = process.env.SECOND_LOOK_TEST_FS_FAULT;
if (raw) {
  const fault = JSON.parse(raw);
  const root = resolve(fault.under);
  const hits = (path) => {
    const full = resolve(String(path));
    return full === root || full.startsWith(root + sep);
  };
  for (const call of fault.calls) {
    const original = fs.promises[call];
    fs.promises[call] = function (path, ...rest) {
      if (hits(path)) {
        const error = new Error(`${fault.code}: ${MESSAGES[fault.code] ?? "injected"}, ${call} '${path}'`);
        Object.assign(error, { code: fault.code, syscall: call, path: String(path) });
        return Promise.reject(error);
      }
      return original.call(this, path, ...rest);
    };
  }
  syncBuiltinESMExports();
}
