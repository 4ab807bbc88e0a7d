// better-sqlite3 has no prebuilt binary reachable from here, so it compiles from source. pnpm 12
// ignores npm's `nodedir` setting, so node-gyp would download Node's headers (which fails
// offline); point it at the headers installed beside this Node instead, and build on every core.
const { dirname, join } = require("node:path");
const { existsSync } = require("node:fs");

module.exports = {
  hooks: {
    updateConfig(config) {
      const prefix = dirname(dirname(process.execPath));
      const extraEnv = { ...config.extraEnv, npm_config_jobs: "max" };
      if (existsSync(join(prefix, "include", "node", "node_version.h"))) {
        extraEnv.npm_config_nodedir = prefix;
      }
      config.extraEnv = extraEnv;
      return config;
    },
  },
};
