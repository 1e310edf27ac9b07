import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Lifts the card on hover (for cards that are links or buttons as a whole). */
  interactive?: boolean;
}

export const Card = forwardRef<HTMLDivElement, CardProps>(function Card({ interactive = false, className, ...props }, ref) {
  return <div ref={ref} className={cn('clip-card', interactive && 'clip-card--interactive', className)} {...props} />;
});

export const CardHeader = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function CardHeader({ className, ...props }, ref) {
  return <div ref={ref} className={cn('clip-card__header', className)} {...props} />;
});

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface CardTitleProps extends HTMLAttributes<HTMLHeadingElement> {
  /** Heading level in the page outline (default 3). */
  level?: HeadingLevel;
}

export const CardTitle = forwardRef<HTMLHeadingElement, CardTitleProps>(function CardTitle({ level = 3, className, ...props }, ref) {
  const Heading = `h${level}` as const;
  return <Heading ref={ref} className={cn('clip-card__title', className)} {...props} />;
});

export const CardDescription = forwardRef<HTMLParagraphElement, HTMLAttributes<HTMLParagraphElement>>(function CardDescription(
  { className, ...props },
  ref,
) {
  return <p ref={ref} className={cn('clip-card__description', className)} {...props} />;
});

export const CardContent = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function CardContent({ className, ...props }, ref) {
  return <div ref={ref} className={cn('clip-card__content', className)} {...props} />;
});

export const CardFooter = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function CardFooter({ className, ...props }, ref) {
  return <div ref={ref} className={cn('clip-card__footer', className)} {...props} />;
});
