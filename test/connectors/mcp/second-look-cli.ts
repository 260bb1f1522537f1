// The `second-look` command run from source (node --import tsx), so tests spawn the real CLI
// without a prior build.
import { main } from "../../../src/cli/main.js";

await main(process.argv.slice(2));
