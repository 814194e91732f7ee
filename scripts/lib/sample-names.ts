// Made-up bylines for the sample crawl's stories and articles. The page text is real (sample-text.ts);
// the people named as authors are not, so no real person is credited with a made-up story.

import { type Rng, pick } from './prng.ts';

const words = (s: string): string[] => s.trim().split(/\s+/);

const FIRST_NAMES = words(`Ada Ben Carla Dmitri Elena Farid Grace Hiro Ines Jonas Kemal Lena Marco Nadia Oskar
  Priya Quentin Rosa Sanjay Tove Ulla Victor Wen Ximena Yusuf Zofia`);
const LAST_NAMES = words(`Abbott Brandt Castillo Dubois Eriksen Fischer Garcia Haddad Ivanova Jensen Kowalski
  Lindqvist Moreau Novak Okafor Petrov Quinn Rossi Sato Tanaka Urban Varga Weber Xu Yilmaz Zimmer`);
// All in GB2312, so that bylines of the GBK-encoded pages can be encoded.
const ZH_SURNAMES = words(`王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗`);
const ZH_GIVEN = words(`明 华 伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 超 秀 霞`);

export function personName(rng: Rng): string {
  return `${pick(rng, FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`;
}

export function zhName(rng: Rng): string {
  return pick(rng, ZH_SURNAMES) + pick(rng, ZH_GIVEN) + (rng() < 0.5 ? pick(rng, ZH_GIVEN) : '');
}
