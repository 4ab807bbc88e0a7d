export {
  type FakeHandler,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  type StartFakeServerOptions,
  sendFakeResponse,
  startFakeServer,
} from "./fake-server.js";
