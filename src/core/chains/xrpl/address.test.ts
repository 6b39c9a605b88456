import { codec, decodeAccountID } from "ripple-address-codec";
import { describe, expect, it } from "vitest";
import { xrplXAddress } from "./address.js";

/** xrpl.js's published X-address vectors: classic account, tag, main-network and test-network X-address. */
const VECTORS: [string, number | null, string, string][] = [
  ["r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59", null, "X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ", "T719a5UwUCnEs54UsxG9CJYYDhwmFCqkr7wxCcNcfZ6p5GZ"],
  ["r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59", 11747, "X7AcgcsBL6XDcUb289X4mJ8djcdyKaLFuhLRuNXPrDeJd9A", "T719a5UwUCnEs54UsxG9CJYYDhwmFCziiNHtUukubF2Mg6t"],
  ["rLczgQHxPhWtjkaQqn3Q6UM8AbRbbRvs5K", null, "XVZVpQj8YSVpNyiwXYSqvQoQqgBttTxAZwMcuJd4xteQHyt", "TVVrSWtmQQssgVcmoMBcFQZKKf56QscyWLKnUyiuZW8ALU4"],
  ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", null, "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb", "TVE26TYGhfLC7tQDno7G8dGtxSkYQn49b3qD26PK7FcGSKE"],
  ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", 0, "XVLhHMPHU98es4dbozjVtdWzVrDjtV8AqEL4xcZj5whKbmc", "TVE26TYGhfLC7tQDno7G8dGtxSkYQnSy8RHqGHoGJ59spi2"],
  ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", 1, "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC", "TVE26TYGhfLC7tQDno7G8dGtxSkYQnSz1uDimDdPYXzSpyw"],
  ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", 65591, "XVLhHMPHU98es4dbozjVtdWzVrDjtVozpjdhPQVdt3ghaWw", "TVE26TYGhfLC7tQDno7G8dGtxSkYQn7ryu2W6njw7mT1jmS"],
  ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", 4294967295, "XVLhHMPHU98es4dbozjVtdWzVrDjtV18pX8yuPT7y4xaEHi", "TVE26TYGhfLC7tQDno7G8dGtxSkYQnXoy6kSDh6rZzApc69"],
  ["rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY", 13371337, "XV5sbjUmgPpvXv4ixFWZ5ptAYZ6PD2qwGkhgc48zzcx6Gkr", "TVd2rqMkYL2AyS97NdELcpeiprNBjwVUDvp3vhpXbNhLwJi"],
];

/** An X-address body: main-network prefix, `rGWrZy…`'s account id, the tag flag, and 8 tag bytes. */
function xAddress(flag: number, tagBytes: number[]): string {
  const accountId = decodeAccountID("rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf");
  return codec.encodeChecked(Uint8Array.from([0x05, 0x44, ...accountId, flag, ...tagBytes]));
}

describe("xrplXAddress", () => {
  describe.each(VECTORS)("%s, tag %s", (account, tag, main, test) => {
    const expected = { account, tag: tag === null ? null : String(tag) };
    it(`on the main network: ${main}`, () => expect(xrplXAddress(main)).toEqual(expected));
    it(`on a test network: ${test}`, () => expect(xrplXAddress(test)).toEqual(expected));
  });

  it("the body helper writes the published spelling of a tagged X-address", () => {
    expect(xAddress(1, [1, 0, 0, 0, 0, 0, 0, 0])).toBe("XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC");
  });

  const refused: [string, string][] = [
    ["a classic address", "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"],
    ["a changed checksum", "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXa"],
    ["an unknown network prefix", "dGzKGt8CVpWoa8aWL1k18tAdy9Won3PxynvbbpkAqp3V47g"],
    ["a 64-bit tag (flag 2)", "XVLhHMPHU98es4dbozjVtdWzVrDjtV18pX8zeUygYrCgrPh"],
    ["a 32-bit tag with the reserved upper bytes set", xAddress(1, [1, 0, 0, 0, 1, 0, 0, 0])],
    ["no tag but tag bytes set", xAddress(0, [1, 0, 0, 0, 0, 0, 0, 0])],
    ["a tag flag other than 0 or 1", xAddress(3, [1, 0, 0, 0, 0, 0, 0, 0])],
    ["a body one byte short", codec.encodeChecked(Uint8Array.from([0x05, 0x44, ...new Uint8Array(20), 0, 0, 0, 0, 0, 0, 0, 0]))],
  ];
  it.each(refused)("refuses %s", (_why, text) => expect(xrplXAddress(text)).toBeNull());
});
