export {
  type ErrorBodyShape,
  errorBodyFault,
  errorBodyShapes,
} from "./error-body-fault.js";
export {
  type FakeHandler,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  type StartFakeServerOptions,
  sendFakeResponse,
  startFakeServer,
} from "./fake-server.js";
