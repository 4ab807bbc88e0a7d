import { nodePostgresTestConfig } from "../../vitest.shared.js";

export default nodePostgresTestConfig;
