// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fake } from './fake-bridge'
import { freshEachTest } from './harness'

const { RegisterForm } = await import('../../src-renderer/screens/partner/Register')

freshEachTest()

function ticks(): Record<string, boolean> {
  const list = screen.getByRole('list', { name: 'Password rules' })
  return Object.fromEntries(
    [...list.querySelectorAll('li')].map((li) => [li.dataset.rule!, li.dataset.ok === 'true']),
  )
}

describe('register a business', () => {
  it('ticks each password rule as the user types', async () => {
    const user = userEvent.setup()
    render(<RegisterForm />)
    const password = screen.getByLabelText(/^Password/, { selector: 'input' })
    expect(ticks()).toEqual({ length: false, letter: false, number: false, special: false })
    await user.type(password, 'abc')
    expect(ticks()).toEqual({ length: false, letter: true, number: false, special: false })
    await user.type(password, '12345')
    expect(ticks()).toEqual({ length: true, letter: true, number: true, special: false })
    await user.type(password, '!')
    expect(ticks()).toEqual({ length: true, letter: true, number: true, special: true })
    // The screen reader hears the state of each rule, not only a tick mark.
    expect(screen.getByRole('list', { name: 'Password rules' }).textContent).toContain(
      'a special character (such as ! @ # $ %): done',
    )
  })

  it('refuses a weak password with the rules it misses, without sending', async () => {
    const user = userEvent.setup()
    render(<RegisterForm />)
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'short1')
    await user.click(screen.getByRole('button', { name: 'Register business' }))
    expect(
      screen.getByText(
        'The password needs at least 8 characters and a special character (such as ! @ # $ %).',
      ),
    ).toBeTruthy()
    expect(fake.calls.registerBusiness).not.toHaveBeenCalled()
  })

  it('says to give the business a name, in plain words, without sending', async () => {
    const user = userEvent.setup()
    render(<RegisterForm />)
    await user.click(screen.getByRole('button', { name: 'Register business' }))
    const name = screen.getByLabelText(/^Business name/, { selector: 'input' })
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Give the business a name.')).toBeTruthy()
    expect(document.body.textContent).not.toMatch(/business_name|must not be empty/)
    expect(fake.calls.registerBusiness).not.toHaveBeenCalled()
  })

  it('explains what paying for the business’s AI credit means', () => {
    render(<RegisterForm />)
    const box = screen.getByLabelText('Pay for this business’s AI use from my partner credit')
    expect(box.getAttribute('aria-describedby')).toBeTruthy()
    const hint = document.getElementById(box.getAttribute('aria-describedby')!)!
    expect(hint.textContent).toMatch(/the business's AI credit use is charged to your partner credit/i)
  })
})
