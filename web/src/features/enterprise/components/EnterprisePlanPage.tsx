import { Link } from 'react-router'
import { IconCheck } from '@/components/ui/icons'
import { EnterpriseForm } from './EnterpriseForm'
import styles from '../enterprise.module.css'

const BENEFITS: Array<{ title: string; text: string }> = [
  {
    title: 'Volume pricing',
    text: 'A lower per-image price for catalogues of thousands of images a month, billed monthly or yearly on invoice.',
  },
  {
    title: 'API access',
    text: 'Generate model swaps and background replaces from your own systems: upload, generate and fetch results over a documented REST API.',
  },
  {
    title: 'Service level agreement',
    text: 'Agreed availability and turnaround times, priority processing and a named contact for support.',
  },
  {
    title: 'Dedicated models',
    text: 'Digital models and backgrounds made for your brand, used only by your team.',
  },
]

/** /enterprise-plan: what an enterprise gets, then the Enterprise Solutions form. */
export function EnterprisePlanPage() {
  return (
    <div className="page">
      <header className="page-header">
        <p className="eyebrow">Enterprise</p>
        <h1>AI fashion imagery at catalogue scale</h1>
        <p className="page-header__sub">
          For brands, marketplaces and studios that need more than a monthly plan. Compare the self-serve plans on the{' '}
          <Link to="/subscription">pricing page</Link>.
        </p>
      </header>
      <ul className={styles.enterpriseBenefits} data-testid="enterprise-benefits">
        {BENEFITS.map((b) => (
          <li key={b.title} className={`card ${styles.enterpriseBenefit}`}>
            <span className={styles.enterpriseBenefitIcon} aria-hidden="true">
              <IconCheck size={18} />
            </span>
            <h2 className={styles.enterpriseBenefitTitle}>{b.title}</h2>
            <p className="muted">{b.text}</p>
          </li>
        ))}
      </ul>
      <section className="section" aria-labelledby="enterprise-form-title">
        <h2 id="enterprise-form-title" className="section__title">
          Enterprise Solutions
        </h2>
        <p className={`muted ${styles.enterpriseFormLead}`}>Leave your details and our expert will connect with you.</p>
        <EnterpriseForm source="enterprise-plan" />
      </section>
    </div>
  )
}
