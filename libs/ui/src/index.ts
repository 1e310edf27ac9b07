// @clipit/ui: the CLIP IT design system. Styles are one stylesheet, loaded once by the shell
// (`@import '@clipit/ui/styles.css';`); see README.md.

// Theme
export { themes, themeStorageKey, defaultTheme, isTheme, themeBootScript, type Theme } from './theme-boot.js';
export { applyTheme, readStoredTheme, storeTheme } from './theme.js';
export { ThemeProvider, useTheme, type ThemeContextValue, type ThemeProviderProps } from './theme-provider.js';
export { tokens, vars, cssVarName, prefersReducedMotion, type ColorTokens, type ShadowTokens } from './tokens.js';

// Components
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './button.js';
export { Input, type InputProps } from './input.js';
export { Textarea, type TextareaProps } from './textarea.js';
export { Select, type SelectOption, type SelectProps } from './select.js';
export { Dialog, DialogTitle, DialogDescription, DialogFooter, type DialogProps } from './dialog.js';
export { Tabs, TabsList, TabsTrigger, TabsContent, type TabsProps, type TabsTriggerProps, type TabsContentProps } from './tabs.js';
export { ToastProvider, useToast, type ToastApi, type ToastHandle, type ToastProviderProps } from './toast.js';
export {
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  TOAST_DURATION,
  TOAST_SWIPE_THRESHOLD,
  type Toast,
  type ToastOptions,
  type ToastVariant,
} from './toast-store.js';
export { Skeleton, type SkeletonProps } from './skeleton.js';
export {
  Card,
  CardHeader,
  CardTitle,
  CardDescription,
  CardContent,
  CardFooter,
  type CardProps,
  type CardTitleProps,
  type HeadingLevel,
} from './card.js';
export { Badge, type BadgeProps, type BadgeVariant } from './badge.js';
export { Spinner, type SpinnerProps, type SpinnerSize } from './spinner.js';
export { VisuallyHidden } from './visually-hidden.js';
export { GuideChecks, type GuideCheckItem, type GuideChecksProps } from './guide-checks.js';

// Helpers
export { cn, type ClassValue, type ClassDictionary } from './cn.js';
export { abbreviateNumber, formatDate } from './format.js';
export { useNearViewport } from './use-near-viewport.js';
