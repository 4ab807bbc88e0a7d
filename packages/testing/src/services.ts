export {
  type SqlResult,
  type SqlRow,
  type TestServices,
  testServices,
} from "./services/test-services.js";
