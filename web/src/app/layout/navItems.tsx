import type { ReactNode } from 'react'
import {
  IconCurate,
  IconDashboard,
  IconHanger,
  IconHelp,
  IconImages,
  IconMail,
  IconPlus,
  IconSettings,
  IconSparkle,
  IconTag,
} from '@/components/ui/icons'

export interface NavItem {
  to: string
  label: string
  icon: ReactNode
  /** Only shown to logged-in users (spec §6). */
  requiresAuth?: boolean
  /** Only shown to operators (role admin); the server checks every admin call anyway. */
  requiresAdmin?: boolean
  testId: string
}

export const TOP_ITEMS: NavItem[] = [
  { to: '/upload-images', label: 'Create New Image', icon: <IconPlus />, testId: 'nav-create-new-image' },
  { to: '/dashboard', label: 'Dashboard', icon: <IconDashboard />, requiresAuth: true, testId: 'nav-dashboard' },
  { to: '/my-images', label: 'My Images', icon: <IconImages />, requiresAuth: true, testId: 'nav-my-images' },
  { to: '/showcase', label: 'Showcase', icon: <IconSparkle />, testId: 'nav-showcase' },
]

export const BOTTOM_ITEMS: NavItem[] = [
  { to: '/subscription', label: 'Pricing', icon: <IconTag />, testId: 'nav-pricing' },
  { to: '/contact', label: 'Contact Us', icon: <IconMail />, testId: 'nav-contact' },
  { to: '/help', label: 'Help & Support', icon: <IconHelp />, testId: 'nav-help' },
  { to: '/user-setting', label: 'User Setting', icon: <IconSettings />, requiresAuth: true, testId: 'nav-user-setting' },
]

/** Operators' pages (outside the app shell, spec §2); listed only for admins. */
export const ADMIN_ITEMS: NavItem[] = [
  { to: '/digital-models', label: 'Digital Models', icon: <IconHanger />, requiresAdmin: true, testId: 'nav-admin-digital-models' },
  { to: '/admin-showcase', label: 'Curate Showcase', icon: <IconCurate />, requiresAdmin: true, testId: 'nav-admin-showcase' },
]

/** The steps of "Create New Image"; the sidebar entry stays active on all of them. */
export const FLOW_PATHS = ['/upload-images', '/select-model', '/select-background', '/generate', '/output-image']
