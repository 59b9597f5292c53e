; gpio input, then the timer: two count reads, a compare match, a flag clear
    lui  r7, 0x100
    lw   r1, 1(r7)
    addi r2, r7, 16
    ldi  r3, 1
    sw   r3, 2(r2)
    ldi  r4, 40
    sw   r4, 1(r2)
    lw   r5, 0(r2)
    add  r0, r0, r0
    add  r0, r0, r0
    lw   r6, 0(r2)
    sub  r6, r6, r5
wait:
    lw   r3, 2(r2)
    ldi  r4, 2
    and  r3, r3, r4
    beq  r3, r0, wait
    ldi  r4, 3
    sw   r4, 2(r2)
    lw   r3, 2(r2)
    add  r1, r1, r6
    add  r1, r1, r3
    sw   r1, 0(r7)
    halt
