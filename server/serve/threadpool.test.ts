import { describe, expect, it } from "vitest";
import { MAX_PARALLEL_HASHES } from "../crypto/hash-parallelism.mjs";
import { threadPoolSize, withThreadPool } from "./threadpool.mjs";

describe("libuv's thread pool size", () => {
  it("is set to the password-hash limit + 4 unless the environment has one", () => {
    expect(withThreadPool({ A: "1" })).toEqual({ A: "1", UV_THREADPOOL_SIZE: String(MAX_PARALLEL_HASHES + 4) });
    expect(withThreadPool({ UV_THREADPOOL_SIZE: "16" })).toEqual({ UV_THREADPOOL_SIZE: "16" });
  });

  it("is read as libuv reads it: leading digits, 0 or none is 1, past 1024 or negative is 1024, unset is 4", () => {
    const size = (v?: string) => threadPoolSize({ UV_THREADPOOL_SIZE: v });
    expect([size(undefined), size("6"), size("8x"), size("0"), size("abc"), size("2000"), size("-1")]).toEqual([4, 6, 8, 1, 1, 1024, 1024]);
  });
});
