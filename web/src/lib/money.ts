/**
 * Money for display (spec §9): amounts arrive as integers in minor units (paise, cents) and are
 * shown with 2 decimals, ₹ for INR and $ for any other currency. Integer arithmetic only, so
 * no amount is ever off by a float rounding; INR groups digits the Indian way (1,49,900.00).
 */

export function currencySymbol(currency: string): string {
  return currency.toUpperCase() === 'INR' ? '₹' : '$'
}

function groupDigits(whole: number, indian: boolean): string {
  const digits = whole.toString()
  if (!indian || digits.length <= 3) return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')
  return `${head},${digits.slice(-3)}`
}

/** 149900 INR → "₹1,499.00"; 14990000 INR → "₹1,49,900.00"; 1900 USD → "$19.00". */
export function formatMoney(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(minor))
  const whole = Math.floor(abs / 100)
  const cents = (abs % 100).toString().padStart(2, '0')
  return `${sign}${currencySymbol(currency)}${groupDigits(whole, currency.toUpperCase() === 'INR')}.${cents}`
}
