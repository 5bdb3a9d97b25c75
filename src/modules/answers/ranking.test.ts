import { describe, expect, it } from 'vitest'
import { keepsDetails, questionDetails } from './details.ts'
import { fitsQuestion } from './kinds.ts'
import { chooseExtractive, questionSlots, rank, type Unit } from './ranking.ts'

const unit = (text: string, extra: Partial<Unit> = {}): Unit => ({
  text, source: { kind: 'segment', id: text, quote: text }, extra: [], boost: 0, coverage: 0, score: 0, ...extra,
})

describe('answer ranking', () => {
  it('wants the kind of thing a question asks for', () => {
    expect(fitsQuestion('Which ticket tracks the export bug?', "It's SUP-2291.")).toBe(0.25)
    expect(fitsQuestion('Which ticket tracks the export bug?', 'The export cuts off at ten thousand rows.')).toBe(0)
    expect(fitsQuestion('Who is running the Hamburg install?', "I'll take it.")).toBe(0.25)
    expect(fitsQuestion('华为推送的问题谁负责跟进？', '赵琳你负责跟进。')).toBe(0.25)
    expect(fitsQuestion('What is the scope of offline mode?', 'Read-only lists.')).toBe(0.05)
  })

  it('reads a Chinese question by its words, not by bigrams straddling them', () => {
    const slots = questionSlots('食堂为什么不提供晚饭？')
    expect(slots).toEqual([
      { weight: 1, tokens: ['食堂'] }, { weight: 0.5, tokens: ['不'] }, { weight: 1, tokens: ['提供'] }, { weight: 1, tokens: ['晚饭'] },
    ])
    // A longer word is covered through each of its bigrams.
    expect(questionSlots('羽绒服').map((slot) => slot.tokens[0])).toEqual(['羽绒', '绒服'])
    // Interrogatives and frames are not content (thirteenth pass): 哪家, 几点, 多少钱, 要不要; 最后 and 定 frame how it ended.
    expect(questionSlots('种植箱找哪家厂买？').map((slot) => slot.tokens[0])).toEqual(['种植', '箱', '找', '厂', '买'])
    expect(questionSlots('晚上的模拟训练开到几点？').map((slot) => slot.tokens[0])).not.toContain('点')
    expect(questionSlots('夜班补贴定了多少钱？')).toEqual([{ weight: 1, tokens: ['夜班'] }, { weight: 1, tokens: ['补贴'] }, { weight: 0.25, tokens: ['定'] }])
    expect(questionSlots('楼顶要不要装监控？').map((slot) => slot.tokens[0])).toEqual(['楼顶', '装', '监控'])
  })

  it('reads a reply with the words of the question before it', () => {
    const asked = new Set(['run', 'hamburg', 'instal'])
    const [best] = rank('Who is running the Hamburg install?', [unit("I'll take it."), unit("I'll take it, sure.", { asked })])
    expect(best!.text).toBe("I'll take it, sure.")
    expect(best!.coverage).toBeGreaterThan(0.8)
  })

  it('weighs a rare missing word more than a common one', () => {
    const passage = () => [unit('Last month we did nine interviews and two offers went out.')]
    const common = rank('Who won the hackathon last month?', passage(), { counts: new Map([['hackathon', 500], ['last', 5], ['month', 5]]), cap: 600 })
    const rare = rank('Who won the hackathon last month?', passage(), { counts: new Map([['hackathon', 0], ['last', 300], ['month', 300]]), cap: 600 })
    expect(rare[0]!.coverage).toBeLessThan(common[0]!.coverage)
    expect(chooseExtractive(rare)).toEqual([])
  })

  it('checks the details a question pins down: a month, a platform, a name, what is counted', () => {
    const words = (text: string) => new Set(text.split(' '))
    const february = questionDetails('What was the cloud bill in February?')
    expect(keepsDetails(february, { tokens: words('cloud bill april') })).toBe(false)
    expect(keepsDetails(february, { tokens: words('ninety two thousand'), meeting: words('februari') })).toBe(true)
    expect(keepsDetails(questionDetails('iOS版本的崩溃率是多少？'), { tokens: words('安卓 崩溃 溃率'), meeting: words('io') })).toBe(false)
    expect(keepsDetails(questionDetails('What did we decide about the office move to Berlin?'), { tokens: words('offic move'), meeting: words('offic move london') })).toBe(false)
    expect(keepsDetails(questionDetails('退款渠道的手续费是多少？'), { tokens: words('退款 渠道 到账') })).toBe(false)
    // A head of four characters is said by either half (thirteenth pass): 模拟训练 / 晚上模拟开放到九点.
    expect(keepsDetails(questionDetails('晚上的模拟训练开到几点？'), { tokens: words('晚上 模拟 开放 九点') })).toBe(true)
    expect(keepsDetails(questionDetails('晚上的模拟训练开到几点？'), { tokens: words('晚上 开放 九点') })).toBe(false)
    const counted = questionDetails('How many scanners did we order for Lyon?')
    expect(keepsDetails(counted, { tokens: words('order spare batteri'), meeting: words('lyon') })).toBe(false)
    expect(keepsDetails(counted, { tokens: words('two'), before: words('scanner'), meeting: words('lyon') })).toBe(true)
    // "may" is the verb far more often than the month
    expect(questionDetails('How many interviews a month may an engineer do?').pinned).toEqual([])
  })

  it('reads Chinese months, events, money and what a 几 / 多少 counts from the text', () => {
    const passage = (text: string, meetingText = text) => ({ tokens: new Set<string>(), text, meetingText })
    // 十一月 is not 十月 (the bigram 一月 is inside 十一月); 11月 is 十一月
    const november = questionDetails('十一月关于物流的投诉有多少单？')
    expect(keepsDetails(november, passage('客服那边十月份关于物流的投诉一共二百三十多单。'))).toBe(false)
    expect(keepsDetails(november, { ...passage('11月的投诉一共二百三十多单。'), tokens: new Set(['投诉']) })).toBe(true)
    // an event must be said in the meeting: 双十二 asked of a 年货节 meeting
    expect(keepsDetails(questionDetails('双十二的直播卖了多少钱？'), { ...passage('三场一共卖了一百八十六万。', '年货节直播复盘'), tokens: new Set(['直播']) })).toBe(false)
    // money asked: a bus count is no price (千 in 千岛湖 is no amount either); 六百五 is
    const price = questionDetails('团建包大巴一辆多少钱？')
    expect(keepsDetails(price, passage('那包两辆大巴吧，到千岛湖。'))).toBe(false)
    expect(keepsDetails(price, passage('大巴一辆六百五。'))).toBe(true)
    expect(keepsDetails(questionDetails('How much money was misused on company cards?'), passage('I was against cards because of the misuse.'))).toBe(false)
    // 几年 wants a number of years; the head after 的 (合同) must be there too
    const years = questionDetails('捷风的合同签几年？')
    expect(years.head).toContain('合同')
    expect(keepsDetails(years, { ...passage('明年的合同还没谈。'), tokens: new Set(['合同']) })).toBe(false)
    expect(keepsDetails(years, { ...passage('合同签两年。'), tokens: new Set(['合同']) })).toBe(true)
    // 几个月 counts months: a month's name (一月) is no count, 三个月 is; 几月 asks which month
    expect(keepsDetails(questionDetails('奖金按几个月的工资发？'), passage('跟一月的工资一起发。'))).toBe(false)
    expect(keepsDetails(questionDetails('奖金按几个月的工资发？'), passage('按三个月的工资发。'))).toBe(true)
    expect(keepsDetails(questionDetails('奖金几月发？'), passage('跟一月的工资一起发。'))).toBe(true)
    // what … cost / how much X did … pay want money
    expect(keepsDetails(questionDetails('What would the shared drive option have cost?'), passage('The other is the shared drive for everyone.'))).toBe(false)
    expect(keepsDetails(questionDetails('How much commission did we pay on that deal?'), passage('We paid out on a three-year deal and they churned.'))).toBe(false)
    expect(keepsDetails(questionDetails('How much commission did we pay on that deal?'), passage('We paid forty thousand pounds on it.'))).toBe(true)
  })

  it('reads a question with words the transcript uses for the same thing', () => {
    const [best] = rank('How many demo requests did the webinar bring in?', [unit('Forty-one demo requests came in within two days.'), unit('The webinar was on Thursday.')])
    expect(best!.text).toContain('demo requests')
    expect(best!.coverage).toBeGreaterThan(0.5)
    const [cost] = rank('Why did our cloud costs go up?', [unit('The cloud bill went up because log storage doubled.')])
    expect(cost!.coverage).toBeGreaterThan(0.85)
  })

  it('never answers with a passage that contradicts a detail, and puts openers last', () => {
    const ranked = rank('What was the cloud bill in February?', [unit('Cloud bill for April: ninety-two thousand dollars.')])
    expect(chooseExtractive(ranked)).toEqual([])
    const [best] = rank('下半年有几个招聘名额？', [unit('今天主要定一下下半年的招聘计划。'), unit('人力那边给我们的名额是五个。', { context: new Set(['下半', '半年', '招聘']) })])
    expect(best!.text).toBe('人力那边给我们的名额是五个。')
  })

  it('answers how a discussion ended with the turn that settled it, not the one that set it up', () => {
    const turns = () => [
      unit('Governing law for the reseller deal: they proposed Delaware, we usually do New York.', { source: { kind: 'segment', id: 's15', quote: '' }, followedBy: ['s17'] }),
      unit('Okay, Delaware then.', { source: { kind: 'segment', id: 's17', quote: '' }, before: new Set(['govern', 'law', 'resel', 'deal', 'propos', 'delawar', 'usual', 'new', 'york']) }),
    ]
    const [settled] = rank('Which governing law did we end up with for the reseller deal?', turns())
    expect(settled!.source.id).toBe('s17')
    expect(chooseExtractive([settled!])).toHaveLength(1)
    // …and a question about the setup keeps it.
    const [proposed] = rank('Which governing law did they propose for the reseller deal?', turns())
    expect(proposed!.source.id).toBe('s15')
  })

  it('cites more than one Chinese passage (the duplicate check keeps letters of every script)', () => {
    const words = new Set(['团建', '地点'])
    const units = [unit('团建地点定在千岛湖。', { context: words }), unit('团建地点大家投了票。', { context: words })]
    for (const each of units) Object.assign(each, { coverage: 1, score: 1 })
    expect(chooseExtractive(units).map((chosen) => chosen.text)).toEqual(['团建地点定在千岛湖。', '团建地点大家投了票。'])
  })

  it('ranks the turn that settles a decision on the passage\'s subject just above it', () => {
    const context = new Set(['offsit', 'locat', 'vote'])
    const setup = unit('The offsite location vote: the lake got most votes.', { context, decidedBy: ['Okay, the lake then.'] })
    const settled = unit('Okay, the lake then.', { context })
    const ranked = rank('Where is the offsite?', [setup, settled])
    expect(ranked.map((each) => each.text)).toEqual(['Okay, the lake then.', 'The offsite location vote: the lake got most votes.'])
    // …not when the question asks for something the settling turn does not say (a number).
    const [best] = rank('How many votes did the offsite location get?', [unit('The offsite location vote: the lake got 31 votes.', { context, decidedBy: ['Okay, the lake then.'] }), unit('Okay, the lake then.', { context })])
    expect(best!.text).toContain('31')
  })
})
