import { describe, expect, it } from 'vitest'
import { contentTokens, cosine, detectLanguage, splitSentences, termVector, withCommaSpaces } from './text.ts'

describe('text', () => {
  it('puts back the space a rejoined clause lost after a comma, not inside a number', () => {
    expect(withCommaSpaces("by the 9th,it's in")).toBe("by the 9th, it's in")
    expect(withCommaSpaces('at 91% full,400 bags')).toBe('at 91% full, 400 bags')
    expect(withCommaSpaces('11,400 weekly listeners')).toBe('11,400 weekly listeners')
  })

  it('guesses the language from the script unless told', () => {
    expect(detectLanguage('我来负责对账模块')).toBe('zh')
    expect(detectLanguage('Loki的查询语法大家不熟')).toBe('zh')
    expect(detectLanguage("I'll take the streaming writer")).toBe('en')
    expect(detectLanguage('ELK', 'zh-Hans')).toBe('zh')
  })

  it('splits English and Chinese sentences', () => {
    expect(splitSentences('The query layer is done. What is missing? The 3.8 ratio stays.')).toEqual(['The query layer is done.', 'What is missing?', 'The 3.8 ratio stays.'])
    expect(splitSentences('好。另外我们决定以后都先写验收标准！对吗？')).toEqual(['好。', '另外我们决定以后都先写验收标准！', '对吗？'])
  })

  it('tokenizes English by stems without stopwords and Chinese by bigrams', () => {
    expect(contentTokens("We'll migrate the billing jobs")).toEqual(['migrat', 'bill', 'job'])
    expect(contentTokens('续费入口')).toEqual(['续费', '费入', '入口'])
    expect(contentTokens('把ELK换成Loki')).toEqual(['elk', '换成', 'loki'])
  })

  it('measures similarity across word forms', () => {
    const a = termVector(contentTokens('migrate the billing job'))
    const b = termVector(contentTokens('Bob migrates billing jobs'))
    expect(cosine(a, b)).toBeGreaterThan(0.8)
    expect(cosine(a, termVector([]))).toBe(0)
  })
})
