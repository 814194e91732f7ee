// Seeded English / Chinese sentence and paragraph generators.

import { type Rng, pick, randInt } from './prng.ts';
import {
  ADJECTIVES,
  ADVERBS,
  FIRST_NAMES,
  LAST_NAMES,
  NOUNS,
  PREPOSITIONS,
  TIME_PHRASES,
  VERBS,
  ZH_GIVEN,
  ZH_SURNAMES,
  ZH_VERBS,
  ZH_WORDS,
} from './wordlists.ts';

const article = (word: string): string => (/^[aeiou]/.test(word) ? 'an' : 'a');
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function personName(rng: Rng): string {
  return `${pick(rng, FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`;
}

export function zhName(rng: Rng): string {
  return pick(rng, ZH_SURNAMES) + pick(rng, ZH_GIVEN) + (rng() < 0.5 ? pick(rng, ZH_GIVEN) : '');
}

export function sentence(rng: Rng): string {
  const n = (): string => pick(rng, NOUNS);
  const v = (): string => pick(rng, VERBS);
  const adj = (): string => pick(rng, ADJECTIVES);
  const a1 = adj();
  const templates: Array<() => string> = [
    () => `the ${a1} ${n()} ${v()} the ${n()} ${pick(rng, TIME_PHRASES)}`,
    () =>
      `${pick(rng, ADVERBS)}, the ${n()} ${v()} ${article(a1)} ${a1} ${n()} ${pick(rng, PREPOSITIONS)} the ${n()}`,
    () => `officials said the ${n()} had ${v()} the ${a1} ${n()} and the ${adj()} ${n()}`,
    () => `${article(a1)} ${a1} ${n()} ${pick(rng, PREPOSITIONS)} the ${n()} was ${v()} by the ${n()}`,
    () => `${personName(rng)}, a ${n()} from the ${a1} ${n()}, ${v()} the ${n()} ${pick(rng, TIME_PHRASES)}`,
    () => `according to the ${n()}, the ${a1} ${n()} ${v()} ${pick(rng, ADVERBS)}`,
    () => `critics ${v()} that the ${n()} of the ${a1} ${n()} was ${adj()} and ${adj()}`,
    () => `the ${n()} and the ${n()} were ${v()} ${pick(rng, PREPOSITIONS)} the ${a1} ${n()}`,
    () => `nobody expected the ${n()} to be ${v()} ${pick(rng, TIME_PHRASES)}, said the ${a1} ${n()}`,
  ];
  return cap(pick(rng, templates)()) + '.';
}

export function paragraph(rng: Rng, minSentences = 3, maxSentences = 6): string {
  const out: string[] = [];
  const count = randInt(rng, minSentences, maxSentences);
  for (let i = 0; i < count; i++) out.push(sentence(rng));
  return out.join(' ');
}

export function headline(rng: Rng): string {
  const parts = [pick(rng, ADJECTIVES), pick(rng, NOUNS), pick(rng, VERBS), pick(rng, NOUNS)];
  if (rng() < 0.6) parts.push(pick(rng, PREPOSITIONS), pick(rng, NOUNS));
  return parts.map(cap).join(' ');
}

export function zhSentence(rng: Rng): string {
  const w = (): string => pick(rng, ZH_WORDS);
  const v = (): string => pick(rng, ZH_VERBS);
  const templates: Array<() => string> = [
    () => `${w()}${w()}${v()}了${w()}${w()}的${w()}`,
    () => `据${w()}${w()}介绍，${w()}${v()}${w()}${w()}，${w()}${w()}${v()}${w()}`,
    () => `${w()}，${w()}${w()}在${w()}${v()}了${w()}${w()}`,
    () => `${w()}的${w()}${w()}已经${v()}，${w()}${w()}表示${w()}${w()}${v()}${w()}`,
    () => `${w()}${w()}和${w()}${w()}共同${v()}${w()}${w()}的${w()}`,
    () => `有关${w()}${v()}，${w()}${w()}将${v()}${w()}${w()}`,
  ];
  return pick(rng, templates)() + '。';
}

export function zhParagraph(rng: Rng, minSentences = 3, maxSentences = 5): string {
  let out = '';
  const count = randInt(rng, minSentences, maxSentences);
  for (let i = 0; i < count; i++) out += zhSentence(rng);
  return out;
}

export function zhHeadline(rng: Rng): string {
  return (
    pick(rng, ZH_WORDS) +
    pick(rng, ZH_WORDS) +
    pick(rng, ZH_VERBS) +
    pick(rng, ZH_WORDS) +
    pick(rng, ZH_WORDS)
  );
}
