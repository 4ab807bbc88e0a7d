export {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
} from "./private-postgres.js";
export { type TestService, testServiceUrl } from "./test-service-url.js";
