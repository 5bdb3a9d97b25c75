// The shape of a language's cue lexicon: the phrases that make a clause an action, a decision, a
// question, an outcome or a reference, and the ones that veto them. One file per language.
import type { Language } from './text.ts'

export type CueSet = {
  language: Language
  /** Discourse fillers removed from the start of a clause, repeatedly ("okay, so, um"). */
  leadingFiller: RegExp
  /** Meeting logistics and small talk: never an item ("can you hear me", "我先共享一下屏幕"). */
  logistics: RegExp
  /** Starts a recap that lists assignments ("to recap:", "总结一下"). */
  recap: RegExp
  /** Puts an option forward ("I suggest", "我建议"): a decision once someone else agrees. */
  proposal: RegExp
  /** The clause agrees with what was just proposed ("agreed", "同意", "就这么定了"). */
  confirmation: RegExp
  /** The clause accepts a request ("sure", "will do", "没问题"). */
  acceptance: RegExp
  /** A commitment by the speaker ("I'll", "let me", "我来"). */
  firstPerson: RegExp
  /** Present progressive that is a commitment only with a future date ("I'm doing X on Monday"). */
  firstPersonProgressive?: RegExp
  /** Vetoes a first-person cue ("I'll be honest", "我觉得", past tense). */
  notCommitment: RegExp
  /** Claims an item just discussed ("that's mine", "交给我"). */
  claim: RegExp
  /** Tested on the whole sentence: owning a past slip, not a task ("that's on me, I was driving"). */
  notClaim?: RegExp
  /** Asks someone to do something ("can you", "你来"). */
  request: RegExp
  notRequest: RegExp
  /** Asks who will do it ("who owns that?", "谁来跟一下"). */
  ownerSolicitation: RegExp
  /** Work nobody has taken yet ("we need to", "someone should", "需要有人"). */
  collectiveNeed: RegExp
  decisionStrong: RegExp
  decisionChoice: RegExp
  decisionPolicy: RegExp
  decisionPolicyWeak: RegExp
  /** A decision recalled from earlier, not made now ("we decided last quarter", "上次已经决定"). */
  decisionRecalled: RegExp
  /** "not X, use Y": a choice even when phrased in the first person. */
  decisionNegativeChoice?: RegExp
  /** "if X, we Y": a rule. */
  decisionConditional?: RegExp
  /** Asks for a choice or a rule ("should we…?", "要不要…？"): a plain answer to it is the decision. */
  choiceQuestion?: RegExp
  /** Marks a change of mind ("actually", "scratch that", "改用"). */
  revision: RegExp
  /** Group 1: the thing chosen ("use Postgres" → postgres). */
  choiceObject: RegExp
  questionStart: RegExp
  questionEnd: RegExp
  notQuestion: RegExp
  openQuestion: RegExp
  risk: RegExp
  worry: RegExp
  /** An answer that leaves a question open ("good question", "I don't know", "还不清楚"). */
  deferral: RegExp
  outcomeDone: RegExp
  /** A completion that is only a condition ("once the upgrade is done"). */
  notOutcome: RegExp
  metricUnit: RegExp
  metricContext: RegExp
  notMetric: RegExp
  referenceLink: RegExp
  referenceDocument: RegExp
  /** A clause that is only a condition for the next one ("once that's merged,", "等X以后，"). */
  conditionStart: RegExp
  /** Group 1 (or 2): what the clause waits for ("once X is done", "等X以后"). */
  dependency: RegExp
  /** "also", "另外": a further item, not an elaboration of the last one. */
  addition: RegExp
  /** A clause whose object is only a pronoun refers back ("I'll do it", "我来吧"). */
  pronoun: RegExp
  /** Tokens that carry no topic of their own (do, take, handle; 处理, 一下). */
  genericTokens: Set<string>
  /** Splits a sentence into clauses that may carry different kinds. */
  clauseSplit: RegExp
  /** Removed from the start of a title, in order. */
  titlePrefixes: RegExp[]
}
