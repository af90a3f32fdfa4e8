/* SPDX-License-Identifier: MIT */
/*
 * Logging trampolines for the slots of NVIDIA's private export tables.
 *
 * A slot's signature is unknown, so a trampoline must not disturb any
 * argument register or the stack the callee sees. Trampoline K loads K
 * into %r11 (scratch in the SysV ABI, never an argument) and enters
 * tramp_common, which saves every argument register, asks cudalog_enter()
 * (C) for the real function, swaps the caller's return address for
 * tramp_return and jumps to the real function with the caller's stack
 * exactly as it was. tramp_return saves the return registers, asks
 * cudalog_exit() for the caller's return address and goes back there.
 */
	.text
	.globl	cudalog_tramps
	.hidden	cudalog_tramps
	.balign	16
cudalog_tramps:
	.set	k, 0
	.rept	4096
	movl	$k, %r11d
	jmp	tramp_common
	.balign	16
	.set	k, k + 1
	.endr

tramp_common:
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	pushq	%r11
	subq	$136, %rsp
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	movq	%rsp, %rdi
	call	cudalog_enter
	movq	%rax, %r11
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	addq	$144, %rsp		/* xmm area, pad and the saved r11 */
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	jmp	*%r11

	.globl	cudalog_tramp_return
	.hidden	cudalog_tramp_return
cudalog_tramp_return:
	pushq	%rax
	pushq	%rdx
	subq	$32, %rsp
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movq	%rsp, %rdi
	call	cudalog_exit
	movq	%rax, %r11
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	addq	$32, %rsp
	popq	%rdx
	popq	%rax
	jmp	*%r11

	.section .note.GNU-stack,"",@progbits
