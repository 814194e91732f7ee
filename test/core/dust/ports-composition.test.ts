/**
 * Two sites on one address by port (issue "Canonical URLs and crawler rules that are safe to act
 * on"): a rule found on one port is no evidence on the other. Port A serves each article at its date
 * permalink, its post page or its ?p= URL; port B at its date permalink and ?p= only. B's family
 * (/{y}/{m}/{d}/{n}/ → /?p={n}) must not be taken for a composition of A's rules (date → post page,
 * ?p= → post page), which apply on A only: canonisation would then merge nothing on B.
 * Seeded random sites; the seed is in every message.
 */
import { describe, expect, it } from 'vitest';
import { ruleSpelling, runDustBuster, type DustRecord } from '../../../src/core/dust';
import { seededRandom } from '../../../src/core/random';
import { page } from './fixtures';

const pad = (n: number) => String(n).padStart(2, '0');
/** A crawled page with its document's digest: pairs of one document spell rules (pair-rules.ts). */
const fetched = (url: string, doc: number): DustRecord => ({ ...page(url, doc), digest: `d${doc}` });

describe('sites by port: compositions are judged on the rule’s own origin', () => {
  for (let seed = 1; seed <= 6; seed++) {
    it(`port B's date permalinks merge with its ?p= pages, seed ${seed}`, () => {
      const rnd = seededRandom(seed * 131);
      const ip = `10.${Math.floor(rnd() * 250)}.0.${1 + Math.floor(rnd() * 250)}`;
      const portA = 20000 + Math.floor(rnd() * 10000);
      const portB = portA + 1 + Math.floor(rnd() * 5);
      const a = `http://${ip}:${portA}`;
      const b = `http://${ip}:${portB}`;
      const records: DustRecord[] = [];
      let doc = 1;
      // One article per date, over years: each date's rule alone has support 1.
      const date = (k: number) => {
        const day = k * 3 + Math.floor(rnd() * 3);
        return `${2015 + Math.floor(day / 336)}/${pad(1 + (Math.floor(day / 28) % 12))}/${pad(1 + (day % 28))}`;
      };
      const nA = 120 + Math.floor(rnd() * 60);
      for (let k = 0; k < nA; k++) {
        const d = doc++;
        const id = 1000 + k * 7;
        // Older articles have no date permalink, newer ones no ?p= URL: the rules A's pages spell
        // each have more support than the date → ?p= family both sites share.
        records.push(fetched(`${a}/posts/${id}.html`, d));
        if (k % 3 !== 0) records.push(fetched(`${a}/${date(k)}/${id}/`, d));
        // The ?p= URL answers 301 to the post page, as blog engines do.
        if (k % 3 !== 1)
          records.push({ url: `${a}/?p=${id}`, status: 301, redirectTo: `${a}/posts/${id}.html` });
      }
      const nB = 12 + Math.floor(rnd() * 20);
      const bPairs: [string, string][] = [];
      for (let k = 0; k < nB; k++) {
        const d = doc++;
        const id = 5000 + k * 11;
        const pair: [string, string] = [`${b}/${date(k)}/${id}/`, `${b}/?p=${id}`];
        records.push(fetched(pair[0], d), fetched(pair[1], d));
        bPairs.push(pair);
      }
      for (let k = 0; k < 20; k++)
        records.push(page(`${a}/about/p${k}.html`, doc++), page(`${b}/kb/p${k}.html`, doc++));
      const dust = runDustBuster(records);
      const msg = `seed ${seed}:\n${dust.rules.map((r) => `${r.status} ${ruleSpelling(r)} ${r.reason ?? ''}`).join('\n')}`;
      const c = (u: string) => dust.canonical.get(u) ?? u;
      const merged = bPairs.filter(([x, y]) => c(x) === c(y)).length;
      expect(merged, msg).toBe(bPairs.length);
      // Nothing on B is sent to a post page, which B never served.
      for (const u of bPairs.flat()) expect(c(u), msg).not.toMatch(/\/posts\//);
    });
  }
});
