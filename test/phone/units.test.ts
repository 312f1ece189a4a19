/**
 * The phone listener's small rules, as pure functions: which addresses it may listen on, the
 * device name the desktop shows, and the rate limiter.
 */
import { describe, expect, it } from 'vitest'
import { authority, chooseListenAddress, isPrivateAddress } from '../../src-main/core/phone/addresses'
import { deviceName } from '../../src-main/core/phone/device'
import { plainStem } from '../../src-main/core/names'
import { RateLimiter } from '../../src-main/core/phone/rate'

describe('where the phone listener may listen', () => {
  it('knows private-network addresses from public ones', () => {
    for (const a of ['10.0.0.5', '172.16.0.1', '172.31.255.254', '192.168.1.20', '169.254.3.4', 'fd12:3456::1', 'fe80::1'])
      expect([a, isPrivateAddress(a)]).toEqual([a, true])
    for (const a of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '100.64.0.1', '2001:db8::1', '127.0.0.1', '0.0.0.0', 'localhost', ''])
      expect([a, isPrivateAddress(a)]).toEqual([a, false])
  })

  it('picks the first private address, takes loopback, and refuses anything else with the way out', () => {
    const lan = [
      { name: 'wlan0', address: '192.168.1.20' },
      { name: 'eth0', address: '10.0.0.7' },
    ]
    expect(chooseListenAddress('', lan)).toEqual({ address: '192.168.1.20' })
    expect(chooseListenAddress('10.0.0.7', lan)).toEqual({ address: '10.0.0.7' })
    expect(chooseListenAddress('127.0.0.1', lan)).toEqual({ address: '127.0.0.1' })
    expect(chooseListenAddress('', [])).toMatchObject({ problem: expect.stringMatching(/no address on a private network/) })
    expect(chooseListenAddress('0.0.0.0', lan)).toMatchObject({ problem: expect.stringMatching(/not a private-network address/) })
    expect(chooseListenAddress('203.0.113.9', lan)).toMatchObject({ problem: expect.stringMatching(/not a private-network address/) })
    expect(chooseListenAddress('192.168.1.99', lan)).toMatchObject({ problem: expect.stringMatching(/has no address 192\.168\.1\.99/) })
    expect(chooseListenAddress('evil.example', lan)).toMatchObject({ problem: expect.stringMatching(/not an IP address/) })
    expect(authority('fd00::1', 8080)).toBe('[fd00::1]:8080')
  })
})

describe('what the desktop calls a phone', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'iPhone · Safari'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1', 'iPhone · Chrome'],
    ['Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36', 'Android phone (SM-S911B) · Samsung Internet'],
    ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 'Android phone · Chrome'],
    ['<script>alert(1)</script>', 'A device'],
    [undefined, 'A device'],
  ])('%s → %s', (ua, name) => {
    expect(deviceName(ua)).toBe(name)
  })
})

describe('a phone’s file name', () => {
  it('keeps letters and digits, never a path', () => {
    expect(plainStem('IMG_20260115_101010.jpg', 'x')).toBe('IMG_20260115_101010')
    expect(plainStem('../../../etc/passwd.pdf', 'x')).toBe('etc_passwd')
    expect(plainStem('..', 'Photo')).toBe('Photo')
    expect(plainStem('reçu été.heic', 'x')).toBe('reçu été')
    expect(plainStem('a\u0000b\\c/d.jpg', 'x')).toBe('a_b_c_d')
  })
})

describe('the rate limiter', () => {
  it('lets a burst through, then refills with time', () => {
    let now = 0
    const r = new RateLimiter(60, 3, () => now)
    expect([r.take('a'), r.take('a'), r.take('a'), r.take('a')]).toEqual([true, true, true, false])
    expect(r.take('b')).toBe(true)
    now += 1000
    expect([r.take('a'), r.take('a')]).toEqual([true, false])
  })
})
