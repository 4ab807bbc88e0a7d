export { freePort } from "./free-port.js";
export {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
} from "./private-postgres.js";
export { type TestService, testServiceUrl } from "./test-service-url.js";
export { uniqueName } from "./unique-name.js";
