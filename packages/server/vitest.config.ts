import { sharedTestConfig } from "../../vitest.shared.js";

export default sharedTestConfig;
