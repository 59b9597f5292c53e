; a counted loop, a taken branch and a jump, each followed by instructions that must not run
    ldi  r1, 0
    ldi  r2, 10
    ldi  r3, 0
    ldi  r6, 0
loop:
    add  r1, r1, r2
    addi r2, r2, -1
    bne  r2, r3, loop
    addi r6, r6, 1
    ldi  r4, 5
    beq  r4, r4, skip
    addi r6, r6, 16
    addi r6, r6, 32
skip:
    jmp  tail
    addi r6, r6, 8
tail:
    add  r1, r1, r6
    lui  r7, 0x100
    sw   r1, 0(r7)
    halt
