// Vocabulary for the generated sample pages. Plain data, no logic.

const words = (s: string): string[] => s.trim().split(/\s+/);

export const NOUNS = words(`
  archive budget bridge cable capital census channel climate coast committee community company
  contract council court crowd culture customer database delegate desert device district doctor
  economy editor election engine factory farmer festival forest garden glacier government harbor
  highway hospital island journal judge kitchen laboratory language library market meadow minister
  mountain museum network orchestra package parliament passenger patient pipeline planet platform
  policy port printer program project province railway reactor record region reporter reservoir
  river robot satellite scholar school scientist season senate server ship signal society software
  soldier station student studio supplier surgeon survey teacher telescope tenant theater tourist
  tower tractor traveler treaty tunnel union university valley vendor village volcano volunteer
  warehouse weather website window winter worker workshop compiler cluster protocol sensor battery
  turbine vaccine archaeologist canal ferry lighthouse monastery orchard quarry vineyard`);

export const VERBS = words(`
  announced approved built cancelled celebrated challenged changed closed collected completed
  confirmed connected considered criticized delayed delivered described designed discovered
  doubled expanded explained explored extended financed found handled improved inspected
  introduced investigated launched measured moved negotiated opened organized planned praised
  predicted prepared protected published questioned rebuilt recorded reduced rejected renewed
  repaired replaced reported rescued restored reviewed revised scheduled secured shipped
  simplified studied supported surveyed suspended tested tracked upgraded visited warned welcomed`);

export const ADJECTIVES = words(`
  ancient annual active bright broad busy careful central cheap clear coastal cold complex
  costly crowded curious dense distant dry early eastern efficient empty enormous famous fast
  fragile fresh generous gentle global gradual heavy hidden historic huge local lonely loud
  modern narrow national northern novel numerous official open patient popular practical private
  public quiet rapid rare regional remote rural seasonal secure serious sharp silent simple slow
  small southern steady strange strict sudden temporary tiny urban useful vast warm western wide
  wooden young`);

export const ADVERBS = words(`
  quickly slowly carefully quietly suddenly finally recently openly partly largely rarely
  usually eventually briefly gradually reluctantly unexpectedly jointly formally`);

export const PREPOSITIONS = words(
  `near beside across behind beyond inside outside above below along around toward`,
);

export const TIME_PHRASES = [
  'on Monday',
  'last week',
  'this spring',
  'after the storm',
  'before the vote',
  'during the night',
  'early this year',
  'for the first time',
  'after months of talks',
  'despite the cold',
];

export const FIRST_NAMES =
  words(`Ada Ben Carla Dmitri Elena Farid Grace Hiro Ines Jonas Kemal Lena Marco Nadia Oskar
  Priya Quentin Rosa Sanjay Tove Ulla Victor Wen Ximena Yusuf Zofia`);

export const LAST_NAMES =
  words(`Abbott Brandt Castillo Dubois Eriksen Fischer Garcia Haddad Ivanova Jensen Kowalski
  Lindqvist Moreau Novak Okafor Petrov Quinn Rossi Sato Tanaka Urban Varga Weber Xu Yilmaz Zimmer`);

// About 250 common two-character Chinese words (all in GB2312).
export const ZH_WORDS = words(`
  城市 农村 经济 发展 政府 公司 学校 学生 老师 医院 医生 记者 工人 农民 市场 价格 交通 铁路 公路 机场
  河流 山区 海岸 天气 气候 环境 资源 能源 电力 水库 森林 草原 沙漠 湖泊 港口 桥梁 隧道 工厂 技术 科学
  研究 实验 数据 网络 软件 系统 平台 服务 用户 手机 电脑 信息 新闻 报告 调查 会议 代表 委员 计划 项目
  工程 建设 投资 贸易 出口 进口 企业 银行 金融 保险 教育 文化 历史 艺术 音乐 电影 体育 比赛 运动 球队
  社会 社区 居民 家庭 儿童 老人 青年 妇女 健康 食品 安全 法律 法院 警察 部门 地区 省份 国家 世界 国际
  问题 原因 结果 影响 变化 方法 方向 目标 标准 质量 效率 成本 收入 支出 预算 税收 政策 制度 改革 管理
  组织 活动 节日 旅游 游客 景区 酒店 餐厅 商店 产品 设备 材料 农业 粮食 蔬菜 水果 牲畜 渔业 天然 气象
  专家 学者 作家 编辑 读者 观众 乘客 司机 车辆 道路 航班 列车 站台 码头 船只 货物 仓库 邮局 图书 档案
  博物 剧院 公园 广场 街道 大楼 住房 租金 工资 就业 岗位 培训 考试 课程 大学 中学 小学 论文 期刊 杂志
  今年 去年 明年 上午 下午 晚上 春天 夏天 秋天 冬天 最近 目前 未来 过去 首次 全面 重要 主要 明显 稳定
  积极 有效 合理 快速 缓慢 严重 普遍 特别 基本 大量 部分 全部 共同 相关 具体 正式 临时 长期 短期 地方`);

export const ZH_VERBS = words(`
  宣布 推出 完成 开始 提高 降低 增加 减少 支持 反对 讨论 研究 调查 发现 解决 提出 建立 改善 保护 发布
  参加 组织 举行 实施 推动 扩大 修建 恢复 检查 关注`);

export const ZH_SURNAMES = words(`王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗`);
export const ZH_GIVEN = words(`明 华 伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 超 秀 霞`);

export const SECTIONS = ['world', 'tech', 'science', 'sports'] as const;
