; back-to-back dependent arithmetic: every operand comes from the instruction right before
    ldi  r1, 23
    ldi  r2, -5
    add  r3, r1, r2
    sub  r4, r3, r1
    xor  r5, r4, r3
    ldi  r6, 3
    shl  r5, r5, r6
    slt  r6, r4, r1
    add  r5, r5, r6
    or   r3, r5, r2
    and  r4, r3, r1
    shr  r4, r4, r6
    addi r4, r4, 9
    slt  r6, r1, r2
    add  r4, r4, r6
    lui  r7, 0x100
    add  r1, r4, r5
    sw   r1, 0(r7)
    halt
