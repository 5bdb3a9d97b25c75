// A small general lexicon of meeting language (pure), for reading a question with words the
// transcript may not use: light words that frame a question more than they name its subject ("bring
// in", "go up", "how many", 岗位), and groups of words that stand for one another in meetings (cost /
// bill / spend, problem / wrong / badly, 负责 / 牵头 / 跟进). Written for meetings in general, not for
// any labelled meeting: English entries are stems as contentTokens writes them.
/** Verbs and framing words that carry little of what a question is about: they count a little. */
export const LIGHT = new Set([
  'bring', 'brought', 'go', 'went', 'gone', 'come', 'came', 'get', 'got', 'make', 'made', 'take', 'took', 'put', 'give', 'gave', 'happen',
  'mani', 'much', 'often', 'exactli', 'actual', 'anywher', 'somewher', 'way', 'thing', 'stuff', 'part', 'like',
  '岗位', '情况', '事情', '方面', '东西', '具体', '安排', '进展', '结果',
])

/** Words that stand for one another in meetings (English stems; Chinese words of two characters). */
const GROUPS: string[][] = [
  ['cost', 'bill', 'spend', 'spent', 'expens', 'invoic', 'fee', 'price', 'pai', 'pay', 'paid', 'charg'],
  ['increas', 'rise', 'rose', 'grow', 'grew', 'growth', 'higher', 'jump', 'doubl'],
  ['decreas', 'drop', 'fell', 'fall', 'lower', 'reduc', 'shrink', 'cut'],
  ['problem', 'issu', 'wrong', 'bad', 'badli', 'bug', 'fail', 'failur', 'broke', 'broken', 'glitch', 'troubl', 'mistak'],
  ['reason', 'caus', 'drove', 'drive', 'driven', 'becaus', 'due'],
  ['save', 'saving', 'cheaper'],
  ['start', 'begin', 'began', 'kick', 'kickoff', 'open'],
  ['end', 'expir', 'finish', 'over', 'close', 'run'],
  ['own', 'owner', 'lead', 'run', 'respons', 'charg', 'handl', 'take', 'drive'],
  ['choos', 'chose', 'chosen', 'pick', 'select', 'opt'],
  ['hire', 'recruit', 'headcount', 'hiring', 'role', 'posit', 'open', 'seat'],
  ['devic', 'unit', 'handheld', 'hardwar'],
  ['old', 'older', 'stale', 'aged'],
  ['ship', 'releas', 'launch', 'deploy', 'rollout', 'roll', 'live', 'out', 'build', 'built'],
  ['delay', 'late', 'behind', 'slip', 'postpon', 'block', 'stuck'],
  ['vendor', 'firm', 'provid', 'supplier', 'agenc', 'contractor'],
  ['deadlin', 'due', 'date', 'latest'],
  ['big', 'size', 'larg', 'volum', 'much'],
  ['fast', 'speed', 'faster', 'quicker', 'latenc', 'slow'],
  ['email', 'mail', 'newslett', 'mailing'],
  ['move', 'reloc', 'migrat', 'switch', 'transfer'],
  ['request', 'ask'],
  ['buy', 'purchas', 'order', 'procur'],
  ['contract', 'leas', 'agreement', 'deal'],
  ['custom', 'client', 'user', 'account'],
  ['staff', 'peopl', 'employe', 'headcount', 'person'],
  ['talk', 'speak', 'contact', 'reach', 'call'],
  ['arriv', 'deliv', 'deliveri', 'come', 'came'],
  ['feedback', 'complain', 'complaint', 'told', 'tell', 'said', 'say'],
  ['cancel', 'churn', 'leav', 'left', 'quit', 'exit'],
  ['write', 'wrote', 'written', 'draft', 'prepar', 'compil'],
  ['weekend', 'saturdai', 'sundai'],
  ['负责', '牵头', '跟进', '主导', '我来', '来跟', '由你'],
  ['名额', '招聘', '人数', '编制', '招人'],
  ['调整', '改成', '改为', '改到', '安排', '变更', '换成'],
  ['上线', '发布', '全量', '推出', '部署'],
  ['费用', '成本', '花费', '预算', '账单', '开销'],
  ['问题', '故障', '缺陷', '异常', '毛病'],
  ['原因', '因为', '由于', '导致'],
  ['到账', '退款', '到款'],
  ['回滚', '退回', '切回', '回退'],
  ['多久', '多长', '时间', '小时', '天数'],
  ['客户', '用户', '顾客'],
  ['停机', '停服', '窗口'],
  ['截止', '最晚', '之前', '到岗'],
  ['上限', '最多', '最高', '封顶', '不超过'],
]

const BY_WORD = new Map<string, string[]>()
for (const group of GROUPS) for (const word of group) BY_WORD.set(word, [...new Set([...(BY_WORD.get(word) ?? []), ...group])])

/** The word and the words that stand for it. */
export function alternatives(word: string): string[] {
  return BY_WORD.get(word) ?? [word]
}

/** Chinese words of the lexicon found in a run of a question. */
export function chineseWordsIn(run: string): string[] {
  const found: string[] = []
  for (const word of BY_WORD.keys()) if (/\p{Script=Han}/u.test(word) && run.includes(word)) found.push(word)
  return found
}

