import { Provider } from 'jotai'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { bootstrap } from '@/app/bootstrap'
import { router } from '@/app/router'
import { appStore } from '@/app/store'
import './styles/global.css'

bootstrap()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={appStore}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
)
