import { afterEach, describe, expect, it } from "vitest";
import { coinDeskFaults } from "./coindesk-faults.js";
import { type FakeCoinDeskServer, startFakeCoinDeskServer } from "./fake-coindesk-server.js";

let server: FakeCoinDeskServer;

afterEach(async () => {
  await server.close();
});

const defaultQuery = "market=cadli&instruments=BTC-USD&apply_mapping=true";

async function tick(query = defaultQuery, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/index/cc/v1/latest/tick?${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("startFakeCoinDeskServer", () => {
  it("answers with the real shape and self-consistent numbers", async () => {
    server = await startFakeCoinDeskServer();
    const { status, body } = await tick();
    expect(status).toBe(200);
    expect(body.Err).toEqual({});
    const btc = (body.Data as Record<string, Record<string, number | string>>)["BTC-USD"];
    expect(btc).toMatchObject({
      TYPE: "1101",
      MARKET: "cadli",
      INSTRUMENT: "BTC-USD",
      VALUE: 97234.5612,
      VALUE_FLAG: "UP",
      VALUE_LAST_UPDATE_TS: 1_736_942_400,
      CURRENT_DAY_OPEN: 96120.87,
      CURRENT_DAY_HIGH: 97510.22,
      CURRENT_DAY_LOW: 95870.4,
      MOVING_24_HOUR_LOW: 95640.27,
      MOVING_24_HOUR_HIGH: 97620.91,
    });
    for (const window of [
      "CURRENT_DAY",
      "CURRENT_WEEK",
      "CURRENT_MONTH",
      "CURRENT_YEAR",
      "MOVING_24_HOUR",
    ]) {
      const open = btc?.[`${window}_OPEN`] as number;
      expect(btc?.[`${window}_CHANGE`]).toBeCloseTo(97234.5612 - open, 6);
      expect(btc?.[`${window}_CHANGE_PERCENTAGE`]).toBeCloseTo(
        ((97234.5612 - open) / open) * 100,
        6,
      );
    }
  });

  it("returns every known instrument asked for and skips unknown ones", async () => {
    server = await startFakeCoinDeskServer();
    const { status, body } = await tick("market=cadli&instruments=BTC-USD,ETH-USD,FOO-USD");
    expect(status).toBe(200);
    expect(Object.keys(body.Data as object)).toEqual(["BTC-USD", "ETH-USD"]);
  });

  it("answers an unknown instrument with the API's error envelope", async () => {
    server = await startFakeCoinDeskServer();
    expect(await tick("market=cadli&instruments=FOO-USD")).toEqual({
      status: 404,
      body: {
        Data: {},
        Err: {
          type: 2,
          message: "Not found: instruments parameter. Values FOO-USD not integrated yet.",
          other_info: { param: "instruments", values: ["FOO-USD"] },
        },
      },
    });
  });

  it("answers an unknown market and a missing parameter with the envelope", async () => {
    server = await startFakeCoinDeskServer();
    expect(await tick("market=nope&instruments=BTC-USD")).toMatchObject({
      status: 404,
      body: { Data: {}, Err: { type: 2, other_info: { param: "market", values: ["nope"] } } },
    });
    expect(await tick("market=cadli")).toMatchObject({
      status: 400,
      body: { Data: {}, Err: { type: 3, other_info: { param: "instruments" } } },
    });
  });

  it("requires the key when given one, by header or query parameter", async () => {
    server = await startFakeCoinDeskServer({ apiKey: "k-123456" });
    const unauthorized = {
      status: 401,
      body: {
        Data: {},
        Err: {
          type: 1,
          message: "You need a valid auth key or api key to access this endpoint",
          other_info: {},
        },
      },
    };
    expect(await tick()).toEqual(unauthorized);
    expect(await tick(defaultQuery, { authorization: "Apikey wrong" })).toEqual(unauthorized);
    expect((await tick(defaultQuery, { authorization: "Apikey k-123456" })).status).toBe(200);
    expect((await tick(`${defaultQuery}&api_key=k-123456`)).status).toBe(200);
  });

  it("merges tick overrides, dropping fields set to undefined and adding instruments", async () => {
    server = await startFakeCoinDeskServer({
      ticks: { "BTC-USD": { VALUE: 1, CURRENT_DAY_HIGH: undefined }, "DOGE-USD": { VALUE: 0.3 } },
    });
    const { body } = await tick("market=cadli&instruments=BTC-USD,DOGE-USD");
    const data = body.Data as Record<string, Record<string, unknown>>;
    expect(data["BTC-USD"]?.VALUE).toBe(1);
    expect(data["BTC-USD"]).not.toHaveProperty("CURRENT_DAY_HIGH");
    expect(data["DOGE-USD"]).toEqual({ VALUE: 0.3 });
  });

  it("serves a malformed body on demand", async () => {
    server = await startFakeCoinDeskServer();
    server.injectFaults(coinDeskFaults.malformedBody());
    const response = await fetch(`${server.url}/index/cc/v1/latest/tick?${defaultQuery}`);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });
});
